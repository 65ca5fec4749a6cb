/*
 * bcryptprimitives.dll with the one export Go >= 1.22 needs at start-up:
 * ProcessPrng. Wine 8 (Debian bookworm) lacks it, so a Windows Go binary
 * dies before main under it. This shim answers it from RtlGenRandom
 * (advapi32!SystemFunction036), which wine has. Built by lane.sh with
 * mingw-w64 and copied into the wine prefix's system32: a CI helper only,
 * never shipped.
 */
#include <windows.h>

BOOLEAN WINAPI SystemFunction036(PVOID buffer, ULONG length);

__declspec(dllexport) BOOL WINAPI ProcessPrng(PBYTE data, SIZE_T len)
{
	while (len > 0) {
		ULONG chunk = len > 0x10000000 ? 0x10000000 : (ULONG)len;
		if (!SystemFunction036(data, chunk))
			return FALSE;
		data += chunk;
		len -= chunk;
	}
	return TRUE;
}
