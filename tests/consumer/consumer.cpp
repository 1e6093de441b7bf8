/* The same program, compiled as C++: the public headers must work there. */
#include "consumer.c"
