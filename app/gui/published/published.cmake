# Samples > Published experiments: the experiments of samples/published/ as
# scenarios, their figures as reference marks on the charts, and the table of
# ours beside theirs. Added to schedscope_gui from here, so the GUI's
# CMakeLists.txt needs one include() line for them.
file(GLOB SCHEDSCOPE_GUI_PUBLISHED_SOURCES CONFIGURE_DEPENDS
  ${CMAKE_CURRENT_LIST_DIR}/*.cpp ${CMAKE_CURRENT_LIST_DIR}/*.h)
target_sources(schedscope_gui PRIVATE ${SCHEDSCOPE_GUI_PUBLISHED_SOURCES})
