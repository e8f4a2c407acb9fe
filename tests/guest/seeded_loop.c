/* A loop whose length comes from getrandom, so its instruction count follows --seed
 * (model analyze --seed, then --compare-sim: tests/statmodel.cmake, statmodel.compare_seed). */
#include <stdio.h>
#include <sys/random.h>
int main(void) {
    unsigned char r[2];
    if (getrandom(r, sizeof r, 0) != (ssize_t)sizeof r) return 1;
    unsigned long n = 1000 + 4 * ((unsigned long)r[0] << 8 | r[1]);
    unsigned long s = 0;
    for (unsigned long i = 0; i < n; i++) s += i ^ (s >> 3);
    printf("%lu %lu\n", n, s);
    return 0;
}
