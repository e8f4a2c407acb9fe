/* A library a test program finds through its RUNPATH of $ORIGIN (origin_use.c). */
int origin_answer(int x) { return 6 * x; }
