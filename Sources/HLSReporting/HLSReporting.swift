internal import CLibXML2
func _probe() { hls_xml_free(nil) }
