// The system's zlib (every Linux and macOS has it): gzip for the feed history.
#include <zlib.h>
