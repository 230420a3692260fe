#include "core/quant/observation_queue.h"

#include <algorithm>
#include <exception>
#include <new>

namespace ql {

ObservationQueue::ObservationQueue(Consumer consumer, size_t maxBytes)
    : mConsumer(std::move(consumer)),
      mMaxBytes(maxBytes),
      mWakeBytes(std::min(kWakeBytes, maxBytes)),
      mWorker([this](std::stop_token stop) { work(stop); }) {}

ObservationQueue::~ObservationQueue() {
    mWorker.request_stop();
    mChanged.notify_all();
}

void ObservationQueue::push(ValueId value, Tensor tensor) {
    const size_t bytes = tensor.byteSize();
    std::unique_lock lock(mMutex);
    const auto hasRoom = [&] { return mQueue.empty() || mBytes + bytes <= mMaxBytes || !mError.isOk(); };
    if (!hasRoom()) {
        mPushWaiting = true;
        mChanged.notify_all();  // a sleeping worker must make the room
        mChanged.wait(lock, hasRoom);
        mPushWaiting = false;
    }
    if (!mError.isOk()) return;  // drain() reports it
    mQueue.emplace_back(value, std::move(tensor));
    mBytes += bytes;
    // Waking a sleeping worker is a system call: with one per tensor (150 per MobileNetV2 sample) the run paid
    // more for them than for the observing itself. It is woken once enough is queued, or by drain().
    if (mWorkerWaiting && mBytes >= mWakeBytes) mChanged.notify_all();
}

Status ObservationQueue::drain() {
    std::unique_lock lock(mMutex);
    mDraining = true;
    mChanged.notify_all();
    mChanged.wait(lock, [&] { return (mQueue.empty() && !mBusy) || !mError.isOk(); });
    mDraining = false;
    return mError;
}

void ObservationQueue::work(std::stop_token stop) {
    std::unique_lock lock(mMutex);
    while (true) {
        if (mQueue.empty()) {  // sleep until a batch worth waking for is queued
            mWorkerWaiting = true;
            mChanged.wait(lock, stop,
                          [&] { return mBytes >= mWakeBytes || ((mDraining || mPushWaiting) && !mQueue.empty()); });
            mWorkerWaiting = false;
        }
        if (stop.stop_requested()) return;
        auto [value, tensor] = std::move(mQueue.front());
        mQueue.pop_front();
        mBusy = true;
        lock.unlock();
        mChanged.notify_all();  // a push waiting for an empty queue may go on
        Status error;
        try {
            mConsumer(value, tensor);
        } catch (const std::bad_alloc&) {
            error = ioError("out of memory while counting activation statistics");
        } catch (const std::exception& e) {
            error = internalError(std::string("while counting activation statistics: ") + e.what());
        }
        const size_t bytes = tensor.byteSize();
        tensor = Tensor();  // free the storage outside the lock
        lock.lock();
        mBusy = false;
        mBytes -= bytes;
        if (!error.isOk() && mError.isOk()) {
            mError = std::move(error);
            mQueue.clear();
            mBytes = 0;
        }
        mChanged.notify_all();
    }
}

}  // namespace ql
