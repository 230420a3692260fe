# `cpack -G DEB` from the build folder makes a Debian package of the app, the CLI and the sample model.
install(FILES ${PROJECT_SOURCE_DIR}/resources/samples/digits_cnn.onnx
              ${PROJECT_SOURCE_DIR}/resources/samples/digits_calib.npy
              ${PROJECT_SOURCE_DIR}/resources/samples/digits_test.npy
              ${PROJECT_SOURCE_DIR}/resources/samples/digits_test_labels.npy
        DESTINATION share/quantlens/samples)
install(FILES ${PROJECT_SOURCE_DIR}/packaging/quantlens.desktop DESTINATION share/applications)
install(FILES ${PROJECT_SOURCE_DIR}/packaging/quantlens-onnx.xml DESTINATION share/mime/packages)

set(CPACK_PACKAGE_NAME "quantlens")
set(CPACK_PACKAGE_VENDOR "QuantLens")
set(CPACK_PACKAGE_CONTACT "QuantLens developers")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "Put ONNX models on TensorRT in INT8: lint, calibrate, compare, export")
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
set(CPACK_DEBIAN_PACKAGE_DEPENDS "qt6-qpa-plugins")
set(CPACK_DEBIAN_PACKAGE_SECTION "science")
include(CPack)
