// libpq's header, for its types and constants only: the library itself is not linked but
// opened at the first connection (FormularyPostgres's LibPQ), so that `formulary` starts
// without loading libpq and what it brings (Kerberos, LDAP, SASL, GnuTLS, OpenSSL) for the
// commands that never reach a PostgreSQL server.
#if __has_include(<postgresql/libpq-fe.h>)
#include <postgresql/libpq-fe.h>
#else
#include <libpq-fe.h>
#endif
#include <dlfcn.h>
#include <stddef.h>

// Every libpq function Formulary calls. A new call is one more name here.
#define FORMULARY_PQ_FUNCTIONS(X) \
    X(PQconnectdb) X(PQfinish) X(PQstatus) X(PQtransactionStatus) X(PQerrorMessage) \
    X(PQsetClientEncoding) X(PQsetNoticeProcessor) \
    X(PQexec) X(PQexecParams) X(PQprepare) X(PQexecPrepared) X(PQgetResult) \
    X(PQputCopyData) X(PQputCopyEnd) X(PQgetCopyData) X(PQfreemem) \
    X(PQresultStatus) X(PQresultErrorMessage) X(PQresultErrorField) X(PQntuples) X(PQnfields) \
    X(PQfname) X(PQftype) X(PQcmdStatus) X(PQcmdTuples) X(PQgetvalue) X(PQgetlength) \
    X(PQgetisnull) X(PQclear)

/// libpq's functions, each a pointer of the type the header declares for it, so that a call
/// through the table is checked as a call of the function itself would be.
typedef struct formulary_pq {
#define FORMULARY_PQ_FIELD(name) __typeof__(name) *_Nonnull name;
    FORMULARY_PQ_FUNCTIONS(FORMULARY_PQ_FIELD)
#undef FORMULARY_PQ_FIELD
} formulary_pq;

/// Opens `library` (libpq's soname, `libpq.so.5`) and fills `functions` with every function
/// above. Returns NULL when all were found, or the dynamic loader's reason (its text stays
/// valid until the next loader call on this thread: copy it at once). The library stays
/// loaded for the life of the process.
static inline const char *_Nullable formulary_pq_load(const char *_Nonnull library,
                                                       formulary_pq *_Nonnull functions) {
    void *handle = dlopen(library, RTLD_NOW | RTLD_LOCAL);
    if (handle == NULL) return dlerror();
#define FORMULARY_PQ_RESOLVE(name) \
    if ((functions->name = (__typeof__(name) *)dlsym(handle, #name)) == NULL) { \
        const char *reason = dlerror(); \
        return reason ? reason : "a function of libpq is missing"; \
    }
    FORMULARY_PQ_FUNCTIONS(FORMULARY_PQ_RESOLVE)
#undef FORMULARY_PQ_RESOLVE
    return NULL;
}
