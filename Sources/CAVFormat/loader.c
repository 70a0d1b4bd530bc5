#include "CAVFormat.h"
#include "CLibraryLoader.h"

#include <dlfcn.h>
#include <stdio.h>

#define VOD_TEXT(x) #x
#define VOD_SONAME(library, major) "lib" #library ".so." VOD_TEXT(major)

/* The soname of the ABI the headers were built against: another major version lays its structs
   out differently, so it is not looked for. dlsym on libavformat finds libavcodec's and
   libavutil's functions too: they are its dependencies, of the majors its build names. */
static const char vod_avformat_soname[] = VOD_SONAME(avformat, LIBAVFORMAT_VERSION_MAJOR);

/* The lists carry each function's library first, which the lookup no longer needs. */
#define VOD_AV_POINTER(library, type, name, parameters, arguments) VOD_LIBRARY_POINTER(type, name, parameters, arguments)
#define VOD_AV_NAME(library, type, name, ...) VOD_LIBRARY_NAME(type, name, 0)
#define VOD_AV_SLOT(library, type, name, ...) VOD_LIBRARY_SLOT(type, name, 0)
VOD_AV_FUNCTIONS(VOD_AV_POINTER)
VOD_AV_PROCEDURES(VOD_AV_POINTER)

static const char *const vod_names[] = {VOD_AV_FUNCTIONS(VOD_AV_NAME) VOD_AV_PROCEDURES(VOD_AV_NAME)};
static void **const vod_slots[] = {VOD_AV_FUNCTIONS(VOD_AV_SLOT) VOD_AV_PROCEDURES(VOD_AV_SLOT)};

/* The libavcodec and libavutil that libavformat brought must be the majors these headers describe
   too: another lays its structs out differently. (Their sonames in the binary are also how
   scripts/package-deb names their packages.) */
static void vod_av_ready(VodLibrary *library) {
    const char *const dependencies[] = {VOD_SONAME(avcodec, LIBAVCODEC_VERSION_MAJOR), VOD_SONAME(avutil, LIBAVUTIL_VERSION_MAJOR)};
    for (size_t i = 0; i < sizeof dependencies / sizeof *dependencies; i++) {
        if (dlopen(dependencies[i], RTLD_NOW | RTLD_NOLOAD | RTLD_NODELETE) == NULL)
            snprintf(library->failure, sizeof library->failure, "%s did not bring %s", library->soname, dependencies[i]);
    }
}

static VodLibrary vod_library = VOD_LIBRARY(vod_avformat_soname, "libavformat59", vod_names, vod_slots, vod_av_ready);

int vod_av_load(char *why, size_t size) {
    return vod_library_load(&vod_library, why, size);
}

/* Under vodapp's names (`vod_avformat_open_input`), not the libraries': nothing calls them before
   vod_av_load answered 0, so they need not load. */
#define VOD_AV_CALL(library, type, name, parameters, arguments) type vod_##name parameters { return vod_p_##name arguments; }
#define VOD_AV_RUN(library, type, name, parameters, arguments) type vod_##name parameters { vod_p_##name arguments; }
VOD_AV_FUNCTIONS(VOD_AV_CALL)
VOD_AV_PROCEDURES(VOD_AV_RUN)
