internal import CFFmpeg
func _probe() -> Int32 { hls_averror_eof() }
