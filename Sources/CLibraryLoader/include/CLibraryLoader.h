#ifndef VODAPP_CLIBRARYLOADER_H
#define VODAPP_CLIBRARYLOADER_H

/* What the libraries vodapp loads at their first use (libcurl, libmosquitto, GLib, libnotify and
   FFmpeg's) share: opening one by soname, once per process, and finding its functions.

   Each library's loader.c lists the functions vodapp uses and keeps a typed pointer for each.
   libcurl's, libmosquitto's, GLib's and libnotify's define each under the library's own name
   (VOD_LIBRARY_CALL), hidden in the executable: callers use the library's headers unchanged, the
   compiler checks every definition against them, and the library's calls to its own functions
   never reach vodapp's. FFmpeg's are called under vodapp's names (CAVFormat.h). */

#include <pthread.h>
#include <stddef.h>

typedef struct VodLibrary {
    const char *soname;
    /* The Debian package that provides it, for the one line that says it is missing. */
    const char *package;
    size_t count;
    const char *const *names;
    void **const *slots;
    /* Called once the functions are found, under the lock, when not NULL: a library's own set-up.
       It calls the library through its pointers, never through the defined names, which would
       wait for this very lock. It may set `failure`. */
    void (*ready)(struct VodLibrary *library);
    pthread_mutex_t lock;
    /* 0 not tried yet, 1 loaded, -1 failed; read and written atomically. */
    int state;
    char failure[512];
} VodLibrary;

/* `names` and `slots` are arrays of the same length: each name's function goes to its slot. */
#define VOD_LIBRARY(soname, package, names, slots, ready) \
    {(soname), (package), sizeof(names) / sizeof *(names), (names), (slots), (ready), PTHREAD_MUTEX_INITIALIZER, 0, {0}}

/* Opens the library and finds its functions, the first time: 0 when all were found (and `ready`
   did not fail), else -1 with the reason in `why` (when not NULL). Later calls answer the same at
   the cost of one atomic read. */
int vod_library_load(VodLibrary *library, char *why, size_t size);

/* vod_library_load for a defined function: when the library cannot be used, the process ends with
   exit 69 (EX_UNAVAILABLE) and one line on stderr. The package's dependencies rule that out; the
   callers that can fail one request instead ask vod_library_load first. */
void vod_library_require(VodLibrary *library);

/* A function of `library` under its own name, hidden: F(return type, name, parameters, arguments). */
#define VOD_LIBRARY_CALL(library, type, name, parameters, arguments) \
    __attribute__((visibility("hidden"))) type name parameters { \
        vod_library_require(&(library)); \
        return vod_p_##name arguments; \
    }
#define VOD_LIBRARY_RUN(library, type, name, parameters, arguments) \
    __attribute__((visibility("hidden"))) type name parameters { \
        vod_library_require(&(library)); \
        vod_p_##name arguments; \
    }

/* What follows a loader's `vod_names` and `vod_slots`: its library, named `vod_library`; `load`,
   the function that loads it for vodapp's callers; and each function of FUNCTIONS and PROCEDURES
   (lists of F(return type, name, parameters, arguments)) under its own name. */
#define VOD_LIBRARY_DEFINE(soname, package, ready, load, FUNCTIONS, PROCEDURES) \
    static VodLibrary vod_library = VOD_LIBRARY(soname, package, vod_names, vod_slots, ready); \
    int load(char *why, size_t size) { return vod_library_load(&vod_library, why, size); } \
    FUNCTIONS(VOD_LIBRARY_CALL_HERE) \
    PROCEDURES(VOD_LIBRARY_RUN_HERE)
#define VOD_LIBRARY_CALL_HERE(type, name, parameters, arguments) VOD_LIBRARY_CALL(vod_library, type, name, parameters, arguments)
#define VOD_LIBRARY_RUN_HERE(type, name, parameters, arguments) VOD_LIBRARY_RUN(vod_library, type, name, parameters, arguments)

/* The pointer each function is called through, its name and its slot, for the lists. */
#define VOD_LIBRARY_POINTER(type, name, parameters, arguments) static type (*vod_p_##name) parameters;
#define VOD_LIBRARY_NAME(type, name, ...) #name,
#define VOD_LIBRARY_SLOT(type, name, ...) (void **)&vod_p_##name,

#endif
