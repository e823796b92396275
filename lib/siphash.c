/* siphash.c: the SipHash-2-4 entry points of siphash.h, and the per-run key. */
#include <fcntl.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "siphash.h"

uint64_t
siphash24(uint64_t k0, uint64_t k1, const void *msg, size_t n)
{
	return siphash(k0, k1, msg, n, 2, 4, NULL);
}

void
siphash24_128(uint64_t k0, uint64_t k1, const void *msg, size_t n, uint64_t out[2])
{
	siphash(k0, k1, msg, n, 2, 4, out);
}

static uint64_t
mix64(uint64_t z)
{
	z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
	z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
	return z ^ (z >> 31);
}

uint64_t
sip_runkey(unsigned i)
{
	static uint64_t key[SIP_RUNKEYS];
	static int drawn;
	unsigned char b[sizeof key];
	struct timespec ts;
	ssize_t got = -1;
	uint64_t z;
	unsigned j;
	int fd;

	if (!drawn) {
		if ((fd = open("/dev/urandom", O_RDONLY | O_CLOEXEC)) >= 0) {
			got = read(fd, b, sizeof b);
			close(fd);
		}
		if (got == (ssize_t)sizeof b) {
			memcpy(key, b, sizeof key);
		} else {
			clock_gettime(CLOCK_REALTIME, &ts);
			z = (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
			z ^= (uint64_t)getpid() << 32 ^ (uint64_t)(uintptr_t)&z;
			for (j = 0; j < SIP_RUNKEYS; j++)
				key[j] = z = mix64(z ^ (uint64_t)(uintptr_t)&key[j]);
		}
		drawn = 1;
	}
	return key[i % SIP_RUNKEYS];
}
