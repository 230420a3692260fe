# `cpack -G DEB` from the build folder makes a Debian package of the app, the CLI and the sample model.
install(FILES ${PROJECT_SOURCE_DIR}/resources/samples/digits_cnn.onnx
              ${PROJECT_SOURCE_DIR}/resources/samples/digits_calib.npy
              ${PROJECT_SOURCE_DIR}/resources/samples/digits_test.npy
              ${PROJECT_SOURCE_DIR}/resources/samples/digits_test_labels.npy
        DESTINATION share/quantlens/samples)
install(FILES ${PROJECT_SOURCE_DIR}/packaging/quantlens.desktop DESTINATION share/applications)
# The MIME types of .onnx models and .qlproj projects, the icon at the standard sizes, AppStream metadata, man pages.
install(FILES ${PROJECT_SOURCE_DIR}/packaging/quantlens-mime.xml DESTINATION share/mime/packages RENAME quantlens.xml)
foreach(size 16 32 48 64 128 256)
  install(FILES ${PROJECT_SOURCE_DIR}/packaging/icons/quantlens-${size}.png
          DESTINATION share/icons/hicolor/${size}x${size}/apps RENAME quantlens.png)
endforeach()
install(FILES ${PROJECT_SOURCE_DIR}/packaging/icons/quantlens.svg DESTINATION share/icons/hicolor/scalable/apps)
install(FILES ${PROJECT_SOURCE_DIR}/packaging/io.github.quantlens.QuantLens.metainfo.xml DESTINATION share/metainfo)
install(FILES ${PROJECT_SOURCE_DIR}/packaging/man/quantlens.1 ${PROJECT_SOURCE_DIR}/packaging/man/quantlens-cli.1
        DESTINATION share/man/man1)

set(CPACK_PACKAGE_NAME "quantlens")
set(CPACK_PACKAGE_VENDOR "QuantLens")
set(CPACK_PACKAGE_CONTACT "QuantLens developers")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "Put ONNX models on TensorRT in INT8: lint, calibrate, compare, export")
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
set(CPACK_DEBIAN_PACKAGE_DEPENDS "qt6-qpa-plugins")
set(CPACK_DEBIAN_PACKAGE_SECTION "science")
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)  # quantlens_<version>_<arch>.deb, as Debian names packages
include(CPack)
