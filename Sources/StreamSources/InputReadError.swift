/// A resource of a stream could not be read: a playlist, a segment, an init section, a key. Every
/// source throws it, local or remote, whatever it reads, so a caller catches one type at this
/// boundary. Content problems are findings, never this error.
package struct InputReadError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The URI (path or URL) that could not be read.
    package var uri: String
    /// Why: the operating system's or the server's reason, or the limit or byte range that refused
    /// it, with the option that raises the limit.
    package var reason: String

    /// Makes an error.
    package init(uri: String, reason: String) {
        self.uri = uri
        self.reason = reason
    }

    /// `uri: reason`.
    package var description: String { "\(uri): \(reason)" }
}
