/// Where a report's bytes go as they are made: a file being replaced, or standard output. The
/// HTML and SARIF reporters write through one as they go, so that a report of any size is never
/// held whole in memory (a 16 000-variant page, 25 000 SARIF results).
package protocol ReportSink: AnyObject {
    /// Takes the next bytes of the report; throws when they cannot be kept (a full disk).
    func write(_ bytes: UnsafeRawBufferPointer) throws
}

extension ReportSink {
    /// Takes the UTF-8 of `text`.
    package func write(_ text: String) throws {
        var text = text
        try text.withUTF8 { try write(UnsafeRawBufferPointer($0)) }
    }
}

/// A sink that keeps every byte: for tests and for the callers that want the report as one string.
package final class ReportBuffer: ReportSink {
    package private(set) var bytes: [UInt8] = []

    package init() {}

    package func write(_ bytes: UnsafeRawBufferPointer) throws {
        self.bytes.append(contentsOf: bytes)
    }

    /// What was written, as text.
    package var text: String { String(decoding: bytes, as: UTF8.self) }
}
