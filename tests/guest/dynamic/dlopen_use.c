/* dlopen of a shared library named on the command line, then a call through dlsym: the
 * dynamic loader maps, relocates and runs code it opened at run time (not at start-up).
 * dlopen_use LIB SYMBOL: calls SYMBOL(argc, argv) as an int (*)(int, char **) with the
 * arguments after SYMBOL, and prints what it returned; a missing library or symbol prints
 * dlerror()'s first word and exits 3. */
#include <dlfcn.h>
#include <stdio.h>
#include <string.h>

int main(int argc, char **argv) {
    if (argc < 3) {
        fprintf(stderr, "usage: dlopen_use LIB SYMBOL [ARGS...]\n");
        return 2;
    }
    void *lib = dlopen(argv[1], RTLD_NOW | RTLD_LOCAL);
    if (!lib) {
        printf("dlopen failed\n");
        return 3;
    }
    int (*fn)(int, char **);
    void *sym = dlsym(lib, argv[2]);
    if (!sym) {
        printf("dlsym failed\n");
        return 3;
    }
    memcpy(&fn, &sym, sizeof fn); /* ISO C has no object-to-function pointer cast */
    fflush(stdout);
    int r = fn(argc - 2, argv + 2);
    printf("%s returned %d\n", argv[2], r);
    return dlclose(lib) == 0 ? 0 : 4;
}
