/* Marks the start ("start") or the end (anything else) of insncount.c's window: each runs a unique mov. */
int main(int argc, char **argv)
{
	if (argc > 1 && argv[1][0] == 's')
		__asm__ volatile("mov $0x13579bdf, %%eax" ::: "eax");
	else
		__asm__ volatile("mov $0x2468ace0, %%eax" ::: "eax");
	return 0;
}
