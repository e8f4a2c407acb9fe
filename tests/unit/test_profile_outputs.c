/* src/profile/sampler.c and file.c: where the sampler's files go and where a report finds the
 * program. staged=1 leaves the profile and the truth as temporaries beside them until
 * profile_sampler_keep (a sampler destroyed without it leaves nothing: the CLI's run that
 * cyclescope could not do); without it they are in place after finish, as before. The program
 * is recorded by its absolute path, and profile_locate_program finds a moved one under the
 * profile's directory. */
#include <dirent.h>
#include <limits.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "profile/profile.h"
#include "runner/runner.h"

static char dir[64];

static int setup(void **state) {
    (void)state;
    snprintf(dir, sizeof dir, "/tmp/cyclescope-test-profile-outputs-XXXXXX");
    return mkdtemp(dir) ? 0 : -1;
}

static int teardown(void **state) {
    (void)state;
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    return system(cmd) == 0 ? 0 : -1;
}

/* The names in dir, sorted, joined by spaces ("" when empty); temporaries as "TMP(NAME)". */
static void listing(char *out, size_t size) {
    struct dirent **names;
    int n = scandir(dir, &names, NULL, alphasort);
    assert_true(n >= 0);
    out[0] = 0;
    for (int i = 0; i < n; i++) {
        const char *name = names[i]->d_name, *tmp = strstr(name, ".tmp-");
        if (strcmp(name, ".") && strcmp(name, "..")) {
            size_t len = strlen(out);
            if (tmp) snprintf(out + len, size - len, "%sTMP(%.*s)", len ? " " : "", (int)(tmp - name), name);
            else snprintf(out + len, size - len, "%s%s", len ? " " : "", name);
        }
        free(names[i]);
    }
    free(names);
}

static void write_file(const char *path, const char *text) {
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    assert_int_equal(fputs(text, f) >= 0, 1);
    fclose(f);
}

/* A sampler of `exe` writing p.prof and p.truth in dir, run through one sample and finished. */
static void *finished_sampler(const char *exe, bool staged) {
    const analysis_ops *ops = analysis_find("profile");
    assert_non_null(ops);
    char prof[128], truth[128];
    snprintf(prof, sizeof prof, "%s/p.prof", dir);
    snprintf(truth, sizeof truth, "%s/p.truth", dir);
    analysis_options opt = {.count = 5,
                            .key = {"file", "exe", "period", "truth", "staged"},
                            .value = {prof, exe, "10-10", truth, staged ? "1" : "0"}};
    cs_error err;
    void *s = ops->create(&opt, &err);
    if (!s) fail_msg("%s", err.msg);
    probe_observer o = ops->observer(s);
    probe_run_info info = {.model = "inorder", .config_name = "inorder1"};
    o.begin(o.ctx, &info);
    sample_view v;
    memset(&v, 0, sizeof v);
    v.seq = 1, v.pc = 0x100, v.state = WST_READY;
    o.sample(o.ctx, &v);
    core_stats st;
    memset(&st, 0, sizeof st);
    st.cycles = 12;
    st.instructions = 10;
    o.end(o.ctx, &st);
    if (!ops->finish(s, NULL, &err)) fail_msg("%s", err.msg);
    return s;
}

static void test_staged(void **state) {
    (void)state;
    const analysis_ops *ops = analysis_find("profile");
    char exe[128], list[512], prof[128];
    snprintf(exe, sizeof exe, "%s/exe", dir);
    snprintf(prof, sizeof prof, "%s/p.prof", dir);
    write_file(exe, "text");
    cs_error err;
    /* staged, not kept: temporaries after finish, nothing after destroy */
    void *s = finished_sampler(exe, true);
    listing(list, sizeof list);
    assert_string_equal(list, "exe TMP(p.prof) TMP(p.truth)");
    ops->destroy(s);
    listing(list, sizeof list);
    assert_string_equal(list, "exe");
    /* staged and kept: both in place, the program recorded absolute */
    s = finished_sampler(exe, true);
    assert_true(profile_sampler_keep(s, &err));
    listing(list, sizeof list);
    assert_string_equal(list, "exe p.prof p.truth");
    assert_false(profile_sampler_keep(s, &err)); /* once */
    assert_non_null(strstr(err.msg, "no profile to keep"));
    ops->destroy(s);
    listing(list, sizeof list);
    assert_string_equal(list, "exe p.prof p.truth");
    profile_data p;
    if (!profile_read(prof, &p, &err)) fail_msg("%s", err.msg);
    char real[PATH_MAX];
    assert_non_null(realpath(exe, real));
    assert_string_equal(p.program, real);
    assert_int_equal(p.cycles, 12);
    profile_data_free(&p);
    unlink(prof);
    snprintf(prof, sizeof prof, "%s/p.truth", dir);
    unlink(prof);
    /* not staged: in place after finish, as before */
    s = finished_sampler(exe, false);
    listing(list, sizeof list);
    assert_string_equal(list, "exe p.prof p.truth");
    ops->destroy(s);
    listing(list, sizeof list);
    assert_string_equal(list, "exe p.prof p.truth");
    unlink(exe);
}

static void test_locate_program(void **state) {
    (void)state;
    char path[256], prof[256];
    snprintf(path, sizeof path, "%s/tree", dir);
    assert_int_equal(mkdir(path, 0777), 0);
    snprintf(path, sizeof path, "%s/tree/bin", dir);
    assert_int_equal(mkdir(path, 0777), 0);
    snprintf(path, sizeof path, "%s/tree/bin/prog", dir);
    write_file(path, "x");
    snprintf(prof, sizeof prof, "%s/tree/p.prof", dir);
    /* there: as recorded */
    char *found = profile_locate_program(prof, path);
    assert_string_equal(found, path);
    free(found);
    /* a relative path recorded elsewhere: under the profile's directory */
    found = profile_locate_program(prof, "bin/prog");
    snprintf(path, sizeof path, "%s/tree/bin/prog", dir);
    assert_string_equal(found, path);
    free(found);
    /* an absolute path of a tree since moved: its tail under the profile's directory */
    found = profile_locate_program(prof, "/nowhere/old/tree/bin/prog");
    assert_string_equal(found, path);
    free(found);
    /* the name alone beside the profile */
    char beside[256];
    snprintf(beside, sizeof beside, "%s/tree/other", dir);
    write_file(beside, "y");
    found = profile_locate_program(prof, "/nowhere/other");
    assert_string_equal(found, beside);
    free(found);
    /* nowhere */
    assert_null(profile_locate_program(prof, "/nowhere/missing"));
    assert_null(profile_locate_program(prof, ""));
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_staged),
        cmocka_unit_test(test_locate_program),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
