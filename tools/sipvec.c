/*
 * sipvec: the SipHash values of lib/siphash.h for the reference test
 * vectors: key 00 01 .. 0f, messages 00 01 .. (len - 1) for len 0 to 15,
 * each output as the bytes of the reference (little-endian), in hex:
 * "24 LEN HEX" (SipHash-2-4), "24-128 LEN HEX" (SipHash-2-4-128). With
 * operands, SipHash-2-4 of each operand under fphash(1)'s key for seed 0.
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "siphash.h"
#include "util.h"

static void
puthex(uint64_t v)
{
	int i;

	for (i = 0; i < 8; i++)
		printf("%02x", (unsigned)(v >> 8 * i & 0xff));
}

int
main(int argc, char *argv[])
{
	unsigned char msg[16];
	uint64_t k0 = UINT64_C(0x0706050403020100), k1 = UINT64_C(0x0f0e0d0c0b0a0908);
	uint64_t h[2];
	size_t len;
	int i;

	argv0 = "sipvec";
	if (argc > 1) {
		for (i = 1; i < argc; i++)
			printf("%s\t%016llx\n", argv[i], (unsigned long long)
			    siphash24(0, ~(uint64_t)0, argv[i], strlen(argv[i])));
		return fshut(stdout, "<stdout>");
	}
	for (len = 0; len < 16; len++) {
		msg[len] = (unsigned char)len;
		printf("24 %zu ", len);
		puthex(siphash24(k0, k1, msg, len));
		printf("\n24-128 %zu ", len);
		siphash24_128(k0, k1, msg, len, h);
		puthex(h[0]);
		puthex(h[1]);
		putchar('\n');
	}
	return fshut(stdout, "<stdout>");
}
