#include "CLibraryLoader.h"

#include <dlfcn.h>
#include <stdio.h>
#include <unistd.h>

static int vod_open(VodLibrary *library) {
    /* RTLD_LOCAL: its symbols stay its own; RTLD_NODELETE: the pointers stay good for the process.
       RTLD_LAZY: libcurl brings some thirty libraries (OpenSSL, GnuTLS, Kerberos, LDAP, ...), and
       binding every symbol they import at once took about a millisecond of each start, for
       functions a run mostly never calls. Versions are still checked as they load, and every
       function vodapp calls is looked up below. */
    void *handle = dlopen(library->soname, RTLD_LAZY | RTLD_LOCAL | RTLD_NODELETE);
    if (handle == NULL) {
        const char *reason = dlerror();
        snprintf(library->failure, sizeof library->failure, "%s", reason != NULL ? reason : library->soname);
        return -1;
    }
    for (size_t i = 0; i < library->count; i++) {
        *library->slots[i] = dlsym(handle, library->names[i]);
        if (*library->slots[i] == NULL) {
            snprintf(library->failure, sizeof library->failure, "%s has no %s", library->soname, library->names[i]);
            return -1;
        }
    }
    if (library->ready != NULL) library->ready(library);
    return library->failure[0] == 0 ? 0 : -1;
}

int vod_library_load(VodLibrary *library, char *why, size_t size) {
    int state = __atomic_load_n(&library->state, __ATOMIC_ACQUIRE);
    if (state == 0) {
        pthread_mutex_lock(&library->lock);
        state = __atomic_load_n(&library->state, __ATOMIC_ACQUIRE);
        if (state == 0) {
            state = vod_open(library) == 0 ? 1 : -1;
            __atomic_store_n(&library->state, state, __ATOMIC_RELEASE);
        }
        pthread_mutex_unlock(&library->lock);
    }
    if (state == 1) return 0;
    if (why != NULL && size > 0) snprintf(why, size, "%s", library->failure);
    return -1;
}

void vod_library_require(VodLibrary *library) {
    if (vod_library_load(library, NULL, 0) == 0) return;
    dprintf(STDERR_FILENO, "vodapp: %s cannot be used: %s (install %s)\n", library->soname, library->failure, library->package);
    _exit(69);
}
