/* The plugin that dlopen.c loads, built twice: with -fcf-protection (marked) and without
 * (unmarked, no ENDBR). plugin_entry is reached through dlsym, an indirect call. */
int plugin_entry(int x) { return 3 * x + 1; }
