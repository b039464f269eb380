/* The library files of the machine bench/tools/discovery_machine.py lays out for the doctor's
 * discovery: empty libraries whose soname, DT_NEEDED and RUNPATH are given by run.sh. */
int fixture_discovery_marker(void) { return 1; }
