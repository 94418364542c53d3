// Threads and process exit without swift-corelibs-foundation's Thread (the binary links
// FoundationEssentials only: docs/benchmarks.md, "Build time and binary size").

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Runs `body` on a detached thread of its own, outside Swift's concurrency pool (a read that
/// blocks every worker of the pool must not block it too). Without a thread to run it on
/// (pthread_create failing), `body` does not run.
func startDetachedThread(_ body: @escaping @Sendable () -> Void) {
    final class Box {
        let body: @Sendable () -> Void; init(_ body: @escaping @Sendable () -> Void) { self.body = body }
    }
    let context = Unmanaged.passRetained(Box(body)).toOpaque()
    #if canImport(Darwin)
    var thread: pthread_t?
    #else
    var thread = pthread_t()
    #endif
    let started = pthread_create(
        &thread, nil,
        { context in
            #if canImport(Darwin)
            let box = Unmanaged<Box>.fromOpaque(context).takeRetainedValue()
            #else
            let box = Unmanaged<Box>.fromOpaque(context!).takeRetainedValue()
            #endif
            box.body()
            return nil
        }, context)
    guard started == 0 else {
        Unmanaged<Box>.fromOpaque(context).release()
        return
    }
    #if canImport(Darwin)
    if let thread { pthread_detach(thread) }
    #else
    pthread_detach(thread)
    #endif
}

/// Ends the process with `code` (C's exit: buffered output is flushed).
func exitProcess(_ code: Int32) -> Never {
    exit(code)
}
