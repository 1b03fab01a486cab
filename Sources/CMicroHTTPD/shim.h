#include <stdint.h>
#include <stddef.h>
#include <stdarg.h>
#include <sys/types.h>
#include <sys/select.h>
#include <sys/socket.h>
#include <microhttpd.h>

// libmicrohttpd's start and info calls are variadic, which Swift cannot call: these fixed
// forms pass the options Formulary uses.

/// Starts a daemon with its own polling thread and a pool of `threads` threads, bound to
/// `address`, calling `notify` when a connection opens and closes (its socket context is
/// Formulary's state of the connection), `uri_log` when a request's first line has arrived
/// (what it returns is the request's state for `handler`), `handler` once the headers are
/// in and for each piece of the body, and `completed` when the request ends. At most
/// `connection_limit` connections in all and `per_ip_connection_limit` from one address;
/// one idle for `timeout_seconds` is closed; each reads into a pool of
/// `connection_memory_limit` bytes.
static inline struct MHD_Daemon *formulary_mhd_start(
    unsigned int flags, const struct sockaddr *address,
    MHD_AccessHandlerCallback handler, void *handler_context,
    MHD_RequestCompletedCallback completed, void *completed_context,
    void *(*uri_log)(void *context, const char *uri, struct MHD_Connection *connection), void *uri_log_context,
    MHD_NotifyConnectionCallback notify, void *notify_context,
    unsigned int threads, unsigned int timeout_seconds, unsigned int connection_limit,
    unsigned int per_ip_connection_limit, size_t connection_memory_limit) {
    return MHD_start_daemon(flags, 0, NULL, NULL, handler, handler_context,
                            MHD_OPTION_SOCK_ADDR, address,
                            MHD_OPTION_NOTIFY_COMPLETED, completed, completed_context,
                            MHD_OPTION_URI_LOG_CALLBACK, uri_log, uri_log_context,
                            MHD_OPTION_NOTIFY_CONNECTION, notify, notify_context,
                            MHD_OPTION_THREAD_POOL_SIZE, threads,
                            MHD_OPTION_CONNECTION_TIMEOUT, timeout_seconds,
                            MHD_OPTION_CONNECTION_LIMIT, connection_limit,
                            MHD_OPTION_PER_IP_CONNECTION_LIMIT, per_ip_connection_limit,
                            MHD_OPTION_CONNECTION_MEMORY_LIMIT, connection_memory_limit,
                            MHD_OPTION_END);
}

/// The connection's socket (-1 when unknown).
static inline int formulary_mhd_socket(struct MHD_Connection *connection) {
    const union MHD_ConnectionInfo *info = MHD_get_connection_info(connection, MHD_CONNECTION_INFO_CONNECTION_FD);
    return info ? info->connect_fd : -1;
}

/// What the connection's notify callback stored as its socket context (NULL when none).
static inline void *formulary_mhd_socket_context(struct MHD_Connection *connection) {
    const union MHD_ConnectionInfo *info = MHD_get_connection_info(connection, MHD_CONNECTION_INFO_SOCKET_CONTEXT);
    return info ? info->socket_context : NULL;
}

/// The size in bytes of the request's line and headers, once they are in (0 before).
static inline size_t formulary_mhd_head_size(struct MHD_Connection *connection) {
    const union MHD_ConnectionInfo *info = MHD_get_connection_info(connection, MHD_CONNECTION_INFO_REQUEST_HEADER_SIZE);
    return info ? info->header_size : 0;
}

/// The port the daemon listens on (0 when unknown).
static inline uint16_t formulary_mhd_port(struct MHD_Daemon *daemon) {
    const union MHD_DaemonInfo *info = MHD_get_daemon_info(daemon, MHD_DAEMON_INFO_BIND_PORT);
    return info ? info->port : 0;
}
