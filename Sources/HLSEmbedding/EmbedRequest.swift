public import HLSCheck
public import HLSPackaging

/// What `hlscheck embed` was asked to do.
public struct EmbedRequest: Sendable {
    /// Where the rewritten stream goes.
    public enum Destination: Sendable, Hashable {
        /// Write a complete copy of the stream into this folder.
        case folder(String)
        /// Rewrite the stream where it is: new segments under new names, the playlists swapped in
        /// last (the old stream or the new one for every reader, never a mix).
        case inPlace
    }

    /// The multivariant or media playlist.
    public var input: String
    /// The poster to embed; nil removes the poster instead.
    public var poster: Poster?
    /// How messages name the image (its file name).
    public var posterName: String
    /// A copy in a folder, or the stream rewritten in place.
    public var destination: Destination
    /// Only these variants/renditions (URIs as written or resolved); empty: every audio-only
    /// variant and every audio rendition.
    public var variants: [String]
    /// Write even when the result exceeds the budget.
    public var force: Bool
    /// Re-encode the image smaller until the result fits the budget.
    public var fit: Bool
    /// Take the poster from the stream's own video at this time instead of `poster`
    /// (`--poster-from-video`); it is fitted to the budget as with `fit`.
    public var posterFromVideo: PosterFrameTime?
    /// The APIC description of a poster taken from the video.
    public var posterDescription = ""
    /// The budget, profile and limits the result is measured and re-checked with.
    public var configuration: CheckConfiguration
    /// When another `hlscheck embed` holds the stream's lock: wait for it (true) or refuse.
    public var wait = false
    /// Rewrite segments under their own names (each replaced whole by a rename) instead of
    /// new, content-addressed ones (docs/embed.md, "Names: new or kept").
    public var keepNames = false
    /// Messages for the user while the run goes on (waiting for the lock, leftovers removed).
    public var report: @Sendable (String) -> Void = { _ in }
    /// Called before each step of writing (a chunk written, a rename, a removal) with the count
    /// so far: the test suite stops or kills the process at chosen steps.
    public var writeStepHook: (@Sendable (Int) -> Void)?

    /// Makes a request; `wait`, `report` and `writeStepHook` keep their defaults (refuse a locked
    /// stream, no messages, no hook).
    public init(
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
public struct EmbedError: Error, Sendable, CustomStringConvertible {
    /// What went wrong, naming the file and what to do.
    public var description: String

    /// Makes an error with its message.
    public init(_ description: String) {
        self.description = description
    }
}

/// What was written, and the check of the result.
public struct EmbedOutcome: Sendable {
    /// One audio-only variant or audio rendition that was rewritten.
    public struct Target: Sendable, Hashable {
        /// The variant's or rendition's URI as written in the multivariant playlist.
        public var uri: String
        /// Number of segments rewritten.
        public var segments: Int
        /// Measured peak bit rate before the rewrite, in bit/s; nil when it could not be measured.
        public var peakBefore: Int?
        /// Peak bit rate of the rewritten segments, in bit/s (the new BANDWIDTH); nil without duration.
        public var peakAfter: Int?
        /// Average bit rate of the rewritten segments, in bit/s (the new AVERAGE-BANDWIDTH); nil without duration.
        public var averageAfter: Int?
        /// What the rewrite kept or added besides the poster (a PRIV timestamp packed audio needs).
        public var notes: [String] = []
        /// Segments rewritten without the poster: a final runt (docs/measurement.md, "Runt segments").
        public var withoutPoster = 0
    }

    /// The playlist to give players: the written copy of the input.
    public var output: String
    /// Every variant and rendition rewritten, in the order they were planned.
    public var targets: [Target]
    /// Set when `--fit` re-encoded the image: what it chose.
    public var fittedImage: String?
    /// The checker's report on the written stream.
    public var verification: CheckReport
    /// The re-check's findings split into those in what embed wrote and those that were in the
    /// stream before (docs/embed.md, "Exit code").
    public var verdict = EmbedVerdict(written: [], before: [])
}
