/* Links one layer's library whole (every object of it) with the libraries it may use
 * and nothing else (CMakeLists.txt, pd_layer): a call against the layers' arrows is an
 * undefined symbol here. The program itself does nothing. */
int main(void)
{
	return 0;
}
