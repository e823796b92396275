/*
 * scan: count the words (runs of ASCII letters) of the files given, with
 * one table lookup per byte: the byte-scan yardstick of bench/pipeline.sh,
 * the speed of reading the text once and looking at every byte.
 */
#include <fcntl.h>
#include <stdio.h>
#include <unistd.h>

int
main(int argc, char *argv[])
{
	static unsigned char isletter[256], buf[1 << 16];
	unsigned long long words = 0;
	ssize_t n, i;
	int c, fd, in, ret = 0;

	for (c = 'a'; c <= 'z'; c++)
		isletter[c] = isletter[c - 'a' + 'A'] = 1;
	for (; argc > 1; argc--, argv++) {
		if ((fd = open(argv[1], O_RDONLY)) < 0) {
			perror(argv[1]);
			ret = 1;
			continue;
		}
		in = 0;
		while ((n = read(fd, buf, sizeof buf)) > 0) {
			for (i = 0; i < n; i++) {
				c = isletter[buf[i]];
				words += (unsigned)(c & ~in);
				in = c;
			}
		}
		if (n < 0) {
			perror(argv[1]);
			ret = 1;
		}
		close(fd);
	}
	printf("%llu\n", words);
	return ret;
}
