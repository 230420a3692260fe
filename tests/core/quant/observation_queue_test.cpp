#include "core/quant/observation_queue.h"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <future>
#include <new>
#include <semaphore>
#include <vector>

namespace ql {
namespace {

Tensor floats(size_t n, float value) {
    return Tensor::fromVector(DataType::Float, {static_cast<int64_t>(n)}, std::vector<float>(n, value));
}

TEST(ObservationQueue, ConsumesEveryTensorInOrderOnAnotherThread) {
    std::vector<std::pair<ValueId, float>> seen;
    std::thread::id worker;
    ObservationQueue queue([&](ValueId v, const Tensor& t) {
        worker = std::this_thread::get_id();
        seen.emplace_back(v, t.span<float>()[0]);
    });
    for (ValueId v = 0; v < 100; ++v) queue.push(v, floats(16, static_cast<float>(v) * 0.5f));
    ASSERT_TRUE(queue.drain().isOk());
    ASSERT_EQ(seen.size(), 100u);
    for (ValueId v = 0; v < 100; ++v)
        EXPECT_EQ(seen[static_cast<size_t>(v)], std::make_pair(v, static_cast<float>(v) * 0.5f));
    EXPECT_NE(worker, std::this_thread::get_id());
}

TEST(ObservationQueue, PushWaitsWhileTheQueuedBytesExceedTheBudget) {
    std::binary_semaphore started(0), release(0);
    std::atomic<int> consumed = 0;
    // Room for one 400-byte tensor: the worker holds the first, the second is queued, the third must wait.
    ObservationQueue queue(
        [&](ValueId v, const Tensor&) {
            if (v == 0) started.release();
            release.acquire();
            ++consumed;
        },
        400);
    // The worker is asleep on the empty queue by now. The budget is below kWakeBytes: the first tensor must wake
    // it all the same (a worker waiting for kWakeBytes that can never be queued hung this test).
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    queue.push(0, floats(100, 1));
    ASSERT_TRUE(started.try_acquire_for(std::chrono::seconds(5))) << "the worker was not woken";
    queue.push(1, floats(100, 1));  // an empty queue takes any tensor
    auto third = std::async(std::launch::async, [&] { queue.push(2, floats(100, 1)); });
    EXPECT_EQ(third.wait_for(std::chrono::milliseconds(200)), std::future_status::timeout);
    release.release();  // the first is consumed, the second taken: the third fits
    EXPECT_EQ(third.wait_for(std::chrono::seconds(5)), std::future_status::ready);
    release.release();
    release.release();
    ASSERT_TRUE(queue.drain().isOk());
    EXPECT_EQ(consumed, 3);
}

TEST(ObservationQueue, DrainReportsAConsumerOutOfMemory) {
    int calls = 0;
    ObservationQueue queue([&](ValueId v, const Tensor&) {
        ++calls;
        if (v == 1) throw std::bad_alloc();
    });
    for (ValueId v = 0; v < 3; ++v) queue.push(v, floats(4, 0));
    const Status status = queue.drain();
    EXPECT_EQ(status.code(), StatusCode::IoError);
    EXPECT_NE(status.message().find("out of memory"), std::string::npos) << status.message();
    EXPECT_LE(calls, 3);
}

TEST(ObservationQueue, DestroyingItWithTensorsQueuedDropsThem) {
    std::binary_semaphore started(0);
    std::atomic<int> consumed = 0;
    {
        ObservationQueue queue([&](ValueId v, const Tensor&) {
            if (v == 0) started.release();
            std::this_thread::sleep_for(std::chrono::milliseconds(100));
            ++consumed;
        });
        // Tensors of a quarter of kWakeBytes each: the worker starts once four are queued.
        const size_t size = ObservationQueue::kWakeBytes / sizeof(float) / 4;
        for (ValueId v = 0; v < 10; ++v) queue.push(v, floats(size, 0));
        ASSERT_TRUE(started.try_acquire_for(std::chrono::seconds(5))) << "the worker was not woken";
    }
    // The one being consumed finishes (and at most one more, taken before the stop); the rest are dropped.
    EXPECT_GE(consumed, 1);
    EXPECT_LE(consumed, 2);
}

}  // namespace
}  // namespace ql
