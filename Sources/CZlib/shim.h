// zlib for the sample server's gzip fault. deflateInit2 is a macro, so a function wraps it.
#include <zlib.h>

static inline int vod_deflate_init_gzip(z_stream *stream) {
    // windowBits 15 + 16: a gzip header and trailer around the deflate data.
    return deflateInit2(stream, Z_DEFAULT_COMPRESSION, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY);
}
