#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A TCP port on 127.0.0.1 that completes the TCP handshake (the kernel does, from the listen
/// backlog) and then never says a word: a TLS client's ClientHello is never answered, an HTTP
/// request never gets a status line. What a firewall that black-holes after the SYN, or a
/// wedged TLS terminator, looks like to a client. `stop()` it at the end of the test.
public final class SilentListener: Sendable {
    public let port: Int
    private let descriptor: Int32

    public struct Failure: Error, CustomStringConvertible {
        public var description: String
    }

    public init() throws(Failure) {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw Failure(description: "socket: \(String(cString: strerror(errno)))") }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = 0
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard bound == 0, listen(fd, 16) == 0 else {
            close(fd)
            throw Failure(description: "bind or listen: \(String(cString: strerror(errno)))")
        }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let named = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        guard named == 0 else {
            close(fd)
            throw Failure(description: "getsockname: \(String(cString: strerror(errno)))")
        }
        descriptor = fd
        port = Int(UInt16(bigEndian: address.sin_port))
    }

    /// The URL of `path` on this port.
    public func url(_ path: String, scheme: String = "https") -> String { "\(scheme)://127.0.0.1:\(port)/\(path)" }

    /// Closes the port; connections waiting in its backlog are reset.
    public func stop() { close(descriptor) }
}
