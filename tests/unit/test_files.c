/* src/util/files.c: opening beneath a directory (openat2 and the fallback
 * walk, case by case), inputs that are not regular files, and outputs written
 * through a temporary file. */
#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "util/util.h"

static char top[256]; /* top/root is the directory writes are confined to; top/outside is not */

static void path_of(char *out, size_t size, const char *rel) { snprintf(out, size, "%s/%s", top, rel); }

static bool exists(const char *rel) {
    char p[512];
    path_of(p, sizeof p, rel);
    struct stat st;
    return lstat(p, &st) == 0;
}

static void make_link(const char *target, const char *rel) {
    char p[512];
    path_of(p, sizeof p, rel);
    assert_int_equal(symlink(target, p), 0);
}

static int setup(void **state) {
    (void)state;
    snprintf(top, sizeof top, "/tmp/cyclescope-test-files-XXXXXX");
    assert_non_null(mkdtemp(top));
    char p[512], q[512];
    path_of(p, sizeof p, "root");
    mkdir(p, 0755);
    path_of(p, sizeof p, "root/sub");
    mkdir(p, 0755);
    path_of(p, sizeof p, "outside");
    mkdir(p, 0755);
    path_of(q, sizeof q, "outside/target");
    make_link(q, "root/abs_dangling"); /* absolute link to a file outside that does not exist yet */
    make_link("../outside/target2", "root/rel_dangling");
    make_link("sub", "root/sublink"); /* stays beneath */
    make_link("../outside", "root/outdir");
    return 0;
}

static int teardown(void **state) {
    (void)state;
    char cmd[600];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", top);
    return system(cmd);
}

static int root_fd(void) {
    char p[512];
    path_of(p, sizeof p, "root");
    int fd = open(p, O_PATH | O_DIRECTORY);
    assert_true(fd >= 0);
    return fd;
}

/* One case, both ways. want_fd: the open must succeed; otherwise it must fail
 * with one of the two errnos (openat2's, the walk's) and create nothing outside. */
static void check(const char *rel, bool want_fd, int openat2_err, int walk_err) {
    int root = root_fd();
    for (int walk = 0; walk < 2; walk++) {
        int fd = cs_open_beneath(root, rel, O_CREAT | O_WRONLY, 0644, walk);
        if (want_fd) {
            if (fd < 0) fail_msg("%s (%s): %s", rel, walk ? "walk" : "openat2", strerror(-fd));
            close(fd);
        } else {
            if (fd >= 0) fail_msg("%s (%s): opened", rel, walk ? "walk" : "openat2");
            int want = walk ? walk_err : openat2_err;
            if (-fd != want)
                fail_msg("%s (%s): %s, expected %s", rel, walk ? "walk" : "openat2", strerror(-fd), strerror(want));
        }
    }
    close(root);
    assert_false(exists("outside/target"));
    assert_false(exists("outside/target2"));
    assert_false(exists("outside/x"));
    assert_false(exists("escaped"));
}

static void test_beneath_allowed(void **state) {
    (void)state;
    check("plain", true, 0, 0);
    check("sub/deeper", true, 0, 0);
    check("sub/../back", true, 0, 0);
    check("./dot", true, 0, 0);
    assert_true(exists("root/plain") && exists("root/sub/deeper") && exists("root/back") && exists("root/dot"));
}

static void test_beneath_refused(void **state) {
    (void)state;
    check("../escaped", false, EXDEV, EXDEV);
    check("sub/../../escaped", false, EXDEV, EXDEV);
    check("/tmp/escaped", false, EXDEV, ENOENT); /* an absolute path: the walk reads it from the root */
    check("abs_dangling", false, EXDEV, ELOOP);
    check("rel_dangling", false, EXDEV, ELOOP);
    check("outdir/x", false, EXDEV, ELOOP);
}

/* A link that stays beneath is followed by openat2; the walk, stricter, refuses it. */
static void test_link_beneath(void **state) {
    (void)state;
    int root = root_fd();
    int fd = cs_open_beneath(root, "sublink/via_link", O_CREAT | O_WRONLY, 0644, false);
    assert_true(fd >= 0);
    close(fd);
    assert_true(exists("root/sub/via_link"));
    assert_int_equal(cs_open_beneath(root, "sublink/via_walk", O_CREAT | O_WRONLY, 0644, true), -ELOOP);
    assert_int_equal(cs_open_beneath(root, "missing/x", O_CREAT | O_WRONLY, 0644, true), -ENOENT);
    close(root);
}

static void test_inputs(void **state) {
    (void)state;
    cs_error err;
    assert_int_equal(cs_open_input("/dev/zero", &err), -1);
    assert_string_equal(err.msg, "/dev/zero: not a regular file");
    assert_int_equal(cs_open_input("/tmp", &err), -1);
    assert_string_equal(err.msg, "/tmp: is a directory");
    char fifo[512];
    path_of(fifo, sizeof fifo, "fifo");
    assert_int_equal(mkfifo(fifo, 0600), 0);
    assert_int_equal(cs_open_input(fifo, &err), -1); /* at once: the open does not wait for a writer */
    assert_non_null(strstr(err.msg, "fifo: not a regular file"));
}

static void read_text(const char *path, char *out, size_t size) {
    FILE *f = fopen(path, "r");
    assert_non_null(f);
    size_t n = fread(out, 1, size - 1, f);
    out[n] = 0;
    fclose(f);
}

static void test_outputs(void **state) {
    (void)state;
    char path[512], text[64];
    path_of(path, sizeof path, "out.txt");
    cs_output o;
    cs_error err;
    FILE *f = cs_output_open(&o, path, &err);
    assert_non_null(f);
    fputs("first", f);
    assert_false(exists("out.txt")); /* nothing at the target until the commit */
    assert_true(cs_output_commit(&o, &err));
    read_text(path, text, sizeof text);
    assert_string_equal(text, "first");
    /* a discarded second output leaves the first as it was, and no temporary */
    f = cs_output_open(&o, path, &err);
    fputs("second, interrupted", f);
    cs_output_discard(&o);
    read_text(path, text, sizeof text);
    assert_string_equal(text, "first");
    char cmd[600];
    snprintf(cmd, sizeof cmd, "ls -a '%s' | grep -q tmp-", top);
    assert_int_not_equal(system(cmd), 0);
    /* an input of this process is never an output */
    cs_protect_inputs();
    int fd = cs_open_input(path, &err);
    assert_true(fd >= 0);
    close(fd);
    assert_null(cs_output_open(&o, path, &err));
    assert_non_null(strstr(err.msg, "the output is also an input"));
    char hard[512];
    path_of(hard, sizeof hard, "hard.txt");
    assert_int_equal(link(path, hard), 0);
    assert_null(cs_output_open(&o, hard, &err));
    /* an input opened after the output was: refused at the commit, the file kept */
    char late[512];
    path_of(late, sizeof late, "late.txt");
    f = cs_output_open(&o, late, &err);
    fputs("late", f);
    assert_true(cs_output_commit(&o, &err));
    f = cs_output_open(&o, late, &err);
    assert_non_null(f);
    fd = cs_open_input(late, &err);
    close(fd);
    fputs("replacement", f);
    assert_false(cs_output_commit(&o, &err));
    read_text(late, text, sizeof text);
    assert_string_equal(text, "late");
}

/* src/util/sha256.c: the file's digest as bytes and as hex agree (one formatter), on FIPS
 * 180-2's "abc" vector. */
static void test_sha256_digest_and_hex(void **state) {
    (void)state;
    static const char want[] = "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad";
    char path[300], hex[65], buf_hex[65];
    snprintf(path, sizeof path, "%s/abc.txt", top);
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    assert_int_equal(fwrite("abc", 1, 3, f), 3);
    fclose(f);
    uint8_t digest[CS_SHA256_BYTES];
    uint64_t bytes = 0;
    cs_error err;
    assert_true(cs_sha256_file_digest(path, digest, &bytes, &err));
    assert_int_equal(bytes, 3);
    assert_int_equal(digest[0], 0xba);
    assert_int_equal(digest[31], 0xad);
    cs_hex_encode(digest, sizeof digest, hex);
    assert_string_equal(hex, want);
    assert_true(cs_sha256_file(path, hex, &bytes, &err));
    assert_string_equal(hex, want);
    cs_sha256_hex("abc", 3, buf_hex);
    assert_string_equal(buf_hex, want);
    static const uint8_t some[] = {0x00, 0x0f, 0xf0, 0xff};
    cs_hex_encode(some, sizeof some, hex);
    assert_string_equal(hex, "000ff0ff");
    unlink(path);
}

/* src/util/util.c: counts are decimal, with an optional K/M/G suffix (powers of 1000); a
 * hexadecimal, blank-led, signed, infinite or not-a-number text is refused, never read as a count. */
static void test_parse_count(void **state) {
    (void)state;
    static const struct {
        const char *text;
        uint64_t value;
    } good[] = {
        {"0", 0},         {"16", 16},   {"10M", 10000000},     {"2.5k", 2500},
        {"1e6", 1000000}, {".5K", 500}, {"3G", 3000000000ull}, {"18446744073709551615", 18446744073709551615ull}};
    for (size_t i = 0; i < sizeof good / sizeof good[0]; i++) {
        uint64_t v = 7;
        assert_true(cs_parse_count(good[i].text, &v));
        assert_true(v == good[i].value);
    }
    static const char *const bad[] = {"0x10", " 5", "5 ", "+5", "-1",    "inf",  "nan",   "1.5",
                                      "",     "1x", "k",  "1e", "0x1p4", "1e30", "2.5.1", "1M5"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        uint64_t v = 7;
        assert_false(cs_parse_count(bad[i], &v));
    }
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_beneath_allowed), cmocka_unit_test(test_beneath_refused),
        cmocka_unit_test(test_link_beneath),    cmocka_unit_test(test_inputs),
        cmocka_unit_test(test_outputs),         cmocka_unit_test(test_sha256_digest_and_hex),
        cmocka_unit_test(test_parse_count),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
