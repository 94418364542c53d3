internal import CFFmpeg

/// A libav call that failed: which function, its return code and libav's own text for it.
/// Everything in this module that calls into libav goes through ``LibAV/check(_:_:)``, so a
/// failure always names the function that produced it (style.md, "one funnel for C calls").
package struct LibAVError: Error, Sendable, Hashable, CustomStringConvertible {
    package var function: String
    package var code: Int32
    package var message: String

    package init(function: String, code: Int32, message: String) {
        self.function = function
        self.code = code
        self.message = message
    }

    /// libav's own text and the call that failed; the numeric code means nothing to a user.
    package var description: String { "\(function): \(message)" }
}

package enum LibAV {
    /// Returns `result` when it is not negative, otherwise throws it as a ``LibAVError``
    /// carrying `av_strerror`'s text.
    @discardableResult
    package static func check(_ function: String, _ result: Int32) throws(LibAVError) -> Int32 {
        guard result < 0 else { return result }
        throw LibAVError(function: function, code: result, message: errorText(result))
    }

    /// A failure that libav reports by returning NULL rather than an error code.
    package static func nullResult(_ function: String) -> LibAVError {
        LibAVError(function: function, code: hls_averror(ENOMEM), message: "returned NULL")
    }

    package static func errorText(_ code: Int32) -> String {
        var buffer = [CChar](repeating: 0, count: 128)
        if av_strerror(code, &buffer, buffer.count) < 0 {
            return "unknown libav error"
        }
        let bytes = buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// libav writes warnings about damaged input straight to stderr; a checker reports those
    /// itself, so libav's own logging is switched off. Setting the level is idempotent and
    /// thread-safe inside libav (a single int), so calling it from every inspector is fine.
    package static func silenceLogging() {
        av_log_set_level(AV_LOG_QUIET)
        // Decode errors reach `--decode` through this callback (SegmentDecoder.swift).
        av_log_set_callback(libAVLogCallback)
    }

    package static func string(_ pointer: UnsafePointer<CChar>?) -> String? {
        guard let pointer else { return nil }
        return String(cString: pointer)
    }
}
