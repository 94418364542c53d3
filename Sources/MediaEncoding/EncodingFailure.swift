/// Why an encoder could not make what it was asked for (the audio of a new variant, a poster
/// fitted to the budget, a still from the video): names the file or the image and libav's own
/// words, for a person to read. The one error this module throws.
package struct EncodingFailure: Error, Sendable, Hashable, CustomStringConvertible {
    /// What went wrong, for a person to read.
    package var description: String

    /// Makes a failure with its message.
    package init(_ description: String) {
        self.description = description
    }
}
