import ArgumentParser
import HLSEmbedding

/// `--poster-from-video TIME`: seconds, M:SS, H:MM:SS or a share such as 25%.
extension PosterFrameTime: ExpressibleByArgument {
    init?(argument: String) {
        self.init(argument)
    }
}
