// A public type's conformance is public: both modules are imported publicly (as ProfileArgument does).
public import ArgumentParser
public import HLSEmbedding

/// `--poster-from-video TIME`: seconds, M:SS, H:MM:SS or a share such as 25%.
extension PosterFrameTime: ExpressibleByArgument {
    public init?(argument: String) {
        self.init(argument)
    }
}
