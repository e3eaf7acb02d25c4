# The analysis widgets (charts, profiler view, explain view, lessons), kept in
# their own directory and added to schedscope_gui from here so that the GUI's
# CMakeLists.txt only needs one include() line for them.
file(GLOB SCHEDSCOPE_GUI_ANALYSIS_SOURCES CONFIGURE_DEPENDS
  ${CMAKE_CURRENT_LIST_DIR}/*.cpp ${CMAKE_CURRENT_LIST_DIR}/*.h)
target_sources(schedscope_gui PRIVATE
  ${SCHEDSCOPE_GUI_ANALYSIS_SOURCES}
  ${PROJECT_SOURCE_DIR}/resources/lessons/lessons.qrc)
