// getrandom(2) for random-lin.js: fills the ArrayBuffer it is given, or throws.
#include "xsmc.h"
#include <sys/random.h>

void svc_random_fill(xsMachine *the)
{
	void *data;
	xsUnsignedValue length;
	xsmcGetBufferWritable(xsArg(0), &data, &length);
	if (getrandom(data, length, 0) != (ssize_t)length)
		xsUnknownError("getrandom failed");
}
