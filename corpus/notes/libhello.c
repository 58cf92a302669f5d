/* A shared library exporting one function. */
const char *corpus_greeting(void)
{
	return "hello from libhello";
}
