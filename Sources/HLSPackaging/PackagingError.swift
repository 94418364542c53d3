/// Why a segment or an image could not be packaged. Every description says what was found and
/// what to do about it, so `hlscheck embed` can print it as is; `kind` lets callers branch.
package struct PackagingError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What kind of problem it is, so that callers can branch without parsing the message.
    package enum Kind: String, Sendable, Hashable {
        /// The poster is not a JPEG or PNG image.
        case unsupportedImage
        /// The segment is not in the container the writer handles (or not in any known one).
        case wrongContainer
        /// MPEG-TS not made of whole 188-byte packets starting with the sync byte.
        case misalignedTransportStream
        /// Encrypted media (scrambled TS packets, SAMPLE-AES stream types).
        case encrypted
        /// No PAT, no PMT, or tables that cannot be read.
        case missingProgramTables
        /// No audio elementary stream, or one without a timestamp.
        case missingAudio
        /// The rewritten PMT or another structure does not fit where it has to go.
        case layoutNotSupported
        /// Packed audio without the RFC 8216 §3.4 timestamp and no fallback timestamp given.
        case missingTimestamp
        /// An existing ID3 tag that cannot be read or converted.
        case malformedID3
        /// The timed-metadata PID chosen for the variant is used by something else in this segment.
        case pidConflict
    }

    /// What kind of problem it is.
    package var kind: Kind
    /// What was found and what to do, ready to print.
    package var description: String

    /// Makes an error.
    package init(_ kind: Kind, _ description: String) {
        self.kind = kind
        self.description = description
    }
}
