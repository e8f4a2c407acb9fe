/* A stand-in for a RISC-V /bin/sh, for the tests of execve through --sysroot (docs/sandbox.md
 * §17): `sh -c 'echo WORDS'` prints the words (one blank between them, then a newline), and
 * `sh -c 'exit N'` exits N: what system() and popen() of those commands need. Anything else
 * says so on stderr and exits 127, as a shell for a command it does not find. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv) {
    if (argc != 3 || strcmp(argv[1], "-c") != 0) {
        fprintf(stderr, "mini_sh: usage: sh -c COMMAND\n");
        return 2;
    }
    char *cmd = argv[2], *save = NULL;
    char *word = strtok_r(cmd, " \t", &save);
    if (word && !strcmp(word, "echo")) {
        const char *sep = "";
        while ((word = strtok_r(NULL, " \t", &save))) {
            printf("%s%s", sep, word);
            sep = " ";
        }
        printf("\n");
        return 0;
    }
    if (word && !strcmp(word, "exit")) {
        word = strtok_r(NULL, " \t", &save);
        return word ? atoi(word) : 0;
    }
    fprintf(stderr, "mini_sh: %s: not found\n", word ? word : "");
    return 127;
}
