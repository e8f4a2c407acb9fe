/*
 * sort -- integer workload: quicksort of pseudo-random 64-bit keys.
 *
 * usage: sort [N]     N = number of keys (default 300000, 16..50000000)
 *
 * Keys come from splitmix64 with a fixed seed.  The sort is an in-place
 * quicksort (median-of-three pivot, Hoare-style partition, insertion sort
 * below 16 elements, recursion on the smaller side only).  Work ~ N log N,
 * i.e. close to linear in N.  The result is verified (ascending order and
 * an order-independent sum over the input) and a position-weighted checksum
 * of the sorted array is printed.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "common.h"

#define DEFAULT_N 300000L
#define MIN_N     16L
#define MAX_N     50000000L

static void insertion_sort(uint64_t *a, long n) {
    for (long i = 1; i < n; i++) {
        uint64_t v = a[i];
        long j = i - 1;
        while (j >= 0 && a[j] > v) {
            a[j + 1] = a[j];
            j--;
        }
        a[j + 1] = v;
    }
}

static void swap64(uint64_t *x, uint64_t *y) {
    uint64_t t = *x;
    *x = *y;
    *y = t;
}

static void quicksort(uint64_t *a, long n) {
    while (n > 16) {
        long mid = n / 2;
        /* median of three into a[mid] */
        if (a[mid] < a[0]) swap64(&a[mid], &a[0]);
        if (a[n - 1] < a[0]) swap64(&a[n - 1], &a[0]);
        if (a[n - 1] < a[mid]) swap64(&a[n - 1], &a[mid]);
        uint64_t pivot = a[mid];
        long i = -1, j = n;
        for (;;) {
            do i++;
            while (a[i] < pivot);
            do j--;
            while (a[j] > pivot);
            if (i >= j) break;
            swap64(&a[i], &a[j]);
        }
        /* a[0..j] <= pivot <= a[j+1..n-1] */
        long left = j + 1, right = n - left;
        if (left < right) {
            quicksort(a, left);
            a += left;
            n = right;
        } else {
            quicksort(a + left, right);
            n = left;
        }
    }
    insertion_sort(a, n);
}

int main(int argc, char **argv) {
    long n = parse_size(argc, argv, "N", DEFAULT_N, MIN_N, MAX_N);
    uint64_t *a = malloc((size_t)n * sizeof *a);
    if (!a) {
        fprintf(stderr, "sort: out of memory\n");
        return 1;
    }
    uint64_t seed = 0x5EED0001ULL, in_sum = 0;
    for (long i = 0; i < n; i++) {
        a[i] = splitmix64(&seed);
        in_sum += a[i];
    }

    quicksort(a, n);

    uint64_t out_sum = 0, check = 0;
    for (long i = 0; i < n; i++) {
        if (i > 0 && a[i - 1] > a[i]) {
            fprintf(stderr, "sort: not sorted at %ld\n", i);
            return 1;
        }
        out_sum += a[i];
        check = (check ^ a[i]) * 0x100000001B3ULL + (uint64_t)i;
    }
    if (out_sum != in_sum) {
        fprintf(stderr, "sort: key multiset changed\n");
        return 1;
    }
    printf("sort: n=%ld min=%016" PRIx64 " max=%016" PRIx64 "\n", n, a[0], a[n - 1]);
    printf("checksum: %016" PRIx64 "\n", check);
    free(a);
    return 0;
}
