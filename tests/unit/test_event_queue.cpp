#include <gtest/gtest.h>

#include <cmath>

#include "dcsweep/core/event_queue.hpp"

namespace dcsweep {
namespace {

TEST(EventQueue, TimeOrderThenPushOrder) {
  EventQueue<int> q;
  q.push(5.0, 1);
  q.push(2.0, 2);
  q.push(5.0, 3);
  q.push(2.0, 4);
  q.push(1.0, 5);
  std::vector<int> order;
  while (!q.empty()) order.push_back(q.pop().payload);
  EXPECT_EQ(order, (std::vector<int>{5, 2, 4, 1, 3}));
}

TEST(EventQueue, EmptyQueueHasNoNextTime) {
  EventQueue<int> q;
  EXPECT_TRUE(std::isinf(q.next_time()));
  q.push(3.5, 0);
  EXPECT_EQ(q.next_time(), 3.5);
}

}  // namespace
}  // namespace dcsweep
