// The textbook approaches in C++, the peers the floor program times the Rust strategies
// against (`floor.rs`, "peers"). Built by the floor program with `g++ -O2` where g++ is found.
//
// Usage: peers N ARRAYS SEED. Draws the floor program's arrays (splitmix64 from SEED, values
// -1000..=1000), calls each approach once on every array, in order, the array passed by
// reference as LeetCode's C++ signature has it (so, unlike the Rust side, no call gets a fresh
// copy), and prints per approach one line: its name, the median call's ns per pile, and one
// letter per array (A, B, T) for the floor program to check against the strategies' answers.
//
// Each is the approach as the seeds write it: f(i), the best lead of the player to move on
// piles i..n, is the max over k in 1..=3 of (s[i] + ... + s[i+k-1]) - f(i+k), f(n) = 0.
#include <chrono>
#include <climits>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <algorithm>
#include <string>
#include <vector>

using std::max;
using std::string;
using std::vector;

static string verdict(int lead) { return lead > 0 ? "Alice" : lead < 0 ? "Bob" : "Tie"; }

// The table of n + 1 leads, filled from the back.
struct DpArray {
    string stoneGameIII(vector<int>& s) {
        int n = s.size();
        vector<int> f(n + 1, 0);
        for (int i = n - 1; i >= 0; --i) {
            f[i] = s[i] - f[i + 1];
            if (i + 1 < n) f[i] = max(f[i], s[i] + s[i + 1] - f[i + 2]);
            if (i + 2 < n) f[i] = max(f[i], s[i] + s[i + 1] + s[i + 2] - f[i + 3]);
        }
        return verdict(f[0]);
    }
};

// The same with f(i+1), f(i+2), f(i+3) in three variables shifted each pile.
struct FourScalars {
    string stoneGameIII(vector<int>& s) {
        int n = s.size(), f0 = 0, f1 = 0, f2 = 0, f3 = 0;
        for (int i = n - 1; i >= 0; --i) {
            f0 = s[i] - f1;
            if (i + 1 < n) f0 = max(f0, s[i] + s[i + 1] - f2);
            if (i + 2 < n) f0 = max(f0, s[i] + s[i + 1] + s[i + 2] - f3);
            f3 = f2, f2 = f1, f1 = f0;
        }
        return verdict(f0);
    }
};

// Top down from pile 0, INT_MIN marking a lead not yet computed.
struct RecursiveMemo {
    vector<int> memo;
    const vector<int>* piles = nullptr;

    int lead(int i) {
        int n = piles->size();
        if (i >= n) return 0;
        if (memo[i] != INT_MIN) return memo[i];
        int taken = 0, best = INT_MIN;
        for (int k = 1; k <= 3 && i + k <= n; ++k) {
            taken += (*piles)[i + k - 1];
            best = max(best, taken - lead(i + k));
        }
        return memo[i] = best;
    }

    string stoneGameIII(vector<int>& s) {
        piles = &s;
        memo.assign(s.size(), INT_MIN);
        return verdict(lead(0));
    }
};

// The table folded into four slots, f(i) at i % 4.
struct RollingMod4 {
    string stoneGameIII(vector<int>& s) {
        int n = s.size(), f[4] = {0, 0, 0, 0};
        for (int i = n - 1; i >= 0; --i) {
            int taken = 0, best = INT_MIN;
            for (int k = 1; k <= 3 && i + k <= n; ++k) {
                taken += s[i + k - 1];
                best = max(best, taken - f[(i + k) % 4]);
            }
            f[i % 4] = best;
        }
        return verdict(f[0]);
    }
};

static uint64_t splitmix64(uint64_t& x) {
    uint64_t z = (x += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

template <class Approach>
static void time(const char* name, vector<vector<int>>& arrays) {
    Approach approach;
    vector<double> ns;
    string letters;
    for (auto& piles : arrays) {
        auto start = std::chrono::steady_clock::now();
        string answer = approach.stoneGameIII(piles);
        auto end = std::chrono::steady_clock::now();
        ns.push_back(std::chrono::duration<double, std::nano>(end - start).count() / piles.size());
        letters += answer[0];
    }
    std::sort(ns.begin(), ns.end());
    std::printf("%s %.4f %s\n", name, ns[ns.size() / 2], letters.c_str());
}

int main(int argc, char** argv) {
    if (argc != 4) {
        std::fprintf(stderr, "usage: peers N ARRAYS SEED\n");
        return 2;
    }
    size_t n = std::strtoull(argv[1], nullptr, 10), count = std::strtoull(argv[2], nullptr, 10);
    uint64_t seed = std::strtoull(argv[3], nullptr, 10);
    vector<vector<int>> arrays(count, vector<int>(n));
    for (auto& piles : arrays)
        for (auto& pile : piles) pile = int(splitmix64(seed) % 2001) - 1000;
    time<DpArray>("dp_array", arrays);
    time<FourScalars>("four_scalars", arrays);
    time<RecursiveMemo>("recursive_memo", arrays);
    time<RollingMod4>("rolling_mod4", arrays);
}
