/* A fake zlibwapi.dll: two named exports and one exported by ordinal only (see zlibwapi.def). */
int zlibVersionNumber(void) { return 0x12b0; }
unsigned long crc32(unsigned long crc, const unsigned char* buf, unsigned len) { return crc + (buf ? len : 0); }
int zlibHidden(void) { return 17; }
