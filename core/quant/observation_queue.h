#pragma once
// Hands the tensors a run produces to a consumer on a worker thread, in the order they were pushed, so their
// statistics are counted while the executor goes on with the next nodes. Counting a histogram costs about a
// nanosecond per value, as much as a light network's whole inference: done inline it would double the cost of
// calibration; overlapped, it uses the core a single-threaded run leaves idle.
//
// A queued Tensor keeps its storage alive; push() waits while more than `maxBytes` are queued (unless the
// queue is empty), so memory stays bounded. The worker starts on what is queued once kWakeBytes are, when
// push() waits for room, or at drain().
#include <condition_variable>
#include <cstddef>
#include <deque>
#include <functional>
#include <mutex>
#include <thread>
#include <utility>

#include "core/common/status.h"
#include "core/exec/tensor.h"
#include "core/model/graph.h"

namespace ql {

class ObservationQueue {
public:
    using Consumer = std::function<void(ValueId, const Tensor&)>;
    static constexpr size_t kDefaultMaxBytes = size_t{128} << 20;
    // A sleeping worker is woken once this much is queued (or by drain()), not for every tensor.
    static constexpr size_t kWakeBytes = size_t{4} << 20;

    explicit ObservationQueue(Consumer consumer, size_t maxBytes = kDefaultMaxBytes);
    // Drops whatever is still queued.
    ~ObservationQueue();
    ObservationQueue(const ObservationQueue&) = delete;
    ObservationQueue& operator=(const ObservationQueue&) = delete;

    void push(ValueId value, Tensor tensor);
    // Waits until everything pushed so far has been consumed. An error is what the consumer threw (out of
    // memory); the tensors after it are dropped.
    Status drain();

private:
    void work(std::stop_token stop);

    const Consumer mConsumer;
    const size_t mMaxBytes;
    // kWakeBytes, or the budget when smaller: a queue that can never hold kWakeBytes must still wake its worker.
    const size_t mWakeBytes;
    std::mutex mMutex;
    std::condition_variable_any mChanged;
    std::deque<std::pair<ValueId, Tensor>> mQueue;
    size_t mBytes = 0;
    bool mBusy = false;           // the worker holds a tensor taken off the queue
    bool mWorkerWaiting = false;  // the worker sleeps on an empty queue
    bool mDraining = false;       // drain() waits: the worker takes whatever is queued
    bool mPushWaiting = false;    // push() waits for room: likewise
    Status mError;
    std::jthread mWorker;  // last: started once the rest is ready, stopped and joined first
};

}  // namespace ql
