package import HLSCheck
package import HLSPackaging

/// What `hlscheck embed` was asked to do.
package struct EmbedRequest: Sendable {
    /// Where the rewritten stream goes.
    package enum Destination: Sendable, Hashable {
        /// Write a complete copy of the stream into this folder.
        case folder(String)
        /// Rewrite the stream where it is: new segments under new names, the playlists swapped in
        /// last (the old stream or the new one for every reader, never a mix).
        case inPlace
    }

    /// The multivariant or media playlist.
    package var input: String
    /// The poster to embed; nil removes the poster instead.
    package var poster: Poster?
    /// How messages name the image (its file name).
    package var posterName: String
    /// A copy in a folder, or the stream rewritten in place.
    package var destination: Destination
    /// Only these variants/renditions (URIs as written or resolved); empty: every audio-only
    /// variant and every audio rendition.
    package var variants: [String]
    /// Write even when the result exceeds the budget.
    package var force: Bool
    /// Re-encode the image smaller until the result fits the budget.
    package var fit: Bool
    /// Take the poster from the stream's own video at this time instead of `poster`
    /// (`--poster-from-video`); it is fitted to the budget as with `fit`.
    package var posterFromVideo: PosterFrameTime?
    /// The APIC description of a poster taken from the video.
    package var posterDescription = ""
    /// The budget, profile and limits the result is measured and re-checked with.
    package var configuration: CheckConfiguration
    /// When another `hlscheck embed` holds the stream's lock: wait for it (true) or refuse.
    package var wait = false
    /// Rewrite segments under their own names (each replaced whole by a rename) instead of
    /// new, content-addressed ones (docs/embed.md, "Names: new or kept").
    package var keepNames = false
    /// Messages for the user while the run goes on (waiting for the lock, leftovers removed).
    package var report: @Sendable (String) -> Void = { _ in }
    /// Called before each step of writing (a chunk written, a rename, a removal) with the count
    /// so far: the test suite stops or kills the process at chosen steps.
    package var writeStepHook: (@Sendable (Int) -> Void)?

    /// Makes a request; `wait`, `report` and `writeStepHook` keep their defaults (refuse a locked
    /// stream, no messages, no hook).
    package init(
        input: String, poster: Poster?, posterName: String, destination: Destination, variants: [String] = [],
        force: Bool = false, fit: Bool = false, configuration: CheckConfiguration = CheckConfiguration()
    ) {
        self.input = input
        self.poster = poster
        self.posterName = posterName
        self.destination = destination
        self.variants = variants
        self.force = force
        self.fit = fit
        self.configuration = configuration
    }
}

/// Why nothing was written. Every description names the file and what to do.
package struct EmbedError: Error, Sendable, CustomStringConvertible {
    /// What went wrong, naming the file and what to do.
    package var description: String

    /// Makes an error with its message.
    package init(_ description: String) {
        self.description = description
    }
}

/// What was written, and the check of the result.
package struct EmbedOutcome: Sendable {
    /// One audio-only variant or audio rendition that was rewritten.
    package struct Target: Sendable, Hashable {
        /// The variant's or rendition's URI as written in the multivariant playlist.
        package var uri: String
        /// Number of segments rewritten.
        package var segments: Int
        /// Measured peak bit rate before the rewrite, in bit/s; nil when it could not be measured.
        package var peakBefore: Int?
        /// Peak bit rate of the rewritten segments, in bit/s (the new BANDWIDTH); nil without duration.
        package var peakAfter: Int?
        /// Average bit rate of the rewritten segments, in bit/s (the new AVERAGE-BANDWIDTH); nil without duration.
        package var averageAfter: Int?
        /// What the rewrite kept or added besides the poster (a PRIV timestamp packed audio needs).
        package var notes: [String] = []
        /// Segments rewritten without the poster: a final runt (docs/measurement.md, "Runt segments").
        package var withoutPoster = 0
    }

    /// The playlist to give players: the written copy of the input.
    package var output: String
    /// Every variant and rendition rewritten, in the order they were planned.
    package var targets: [Target]
    /// Set when `--fit` re-encoded the image: what it chose.
    package var fittedImage: String?
    /// The checker's report on the written stream.
    package var verification: CheckReport
    /// The re-check's findings split into those in what embed wrote and those that were in the
    /// stream before (docs/embed.md, "Exit code").
    package var verdict = EmbedVerdict(written: [], before: [])
}
