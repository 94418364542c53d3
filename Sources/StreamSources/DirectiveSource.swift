/// One HTTP answer, whatever its status: what the probe of delivery directives judges.
package struct DirectiveAnswer: Sendable, Hashable {
    /// The final HTTP status; nil when no answer came (then `failure` says why).
    package var status: Int?
    /// The body of a 2xx answer.
    package var bytes: [UInt8]
    package var failure: String?

    package init(status: Int?, bytes: [UInt8] = [], failure: String? = nil) {
        self.status = status
        self.bytes = bytes
        self.failure = failure
    }

    /// Whether the answer was a 2xx.
    package var succeeded: Bool { status.map { (200..<300).contains($0) } ?? false }
}

/// A playlist source that can send a request carrying delivery directives and report its status
/// (HLSRemote's): a 400 is an answer to judge there, not a failure to read.
package protocol DirectiveSource: Sendable {
    /// GETs `uri` as it is, query included, and returns the answer without recording it in the
    /// delivery log (the probe's requests are not the stream's).
    func answer(_ uri: String) async -> DirectiveAnswer

    /// The longest one answer may take (`--request-timeout`): the probe of a whole stream is
    /// given this long, so that a server holding blocking requests costs it one timeout.
    var answerTimeout: Duration { get }
}
