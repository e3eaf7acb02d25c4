#include "background_job.h"

namespace schedscope::gui {

BackgroundJob::~BackgroundJob()
{
    cancel();
    join();
}

void BackgroundJob::join()
{
    if (thread_.joinable())
        thread_.join();
}

void BackgroundJob::cancel()
{
    if (cancel_)
        *cancel_ = true;
}

} // namespace schedscope::gui
