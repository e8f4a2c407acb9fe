// A dynamically linked C++ program: libstdc++.so and libgcc_s.so's unwinder (a throw
// crosses frames and a std::function), std::string, std::map and iostreams.
// cxx_exceptions N: throws on the values of 0..N-1 divisible by 3, counts what it caught.
#include <cstdlib>
#include <functional>
#include <iostream>
#include <map>
#include <stdexcept>
#include <string>

static int checked(int v) {
    if (v % 3 == 0) throw std::runtime_error("multiple of three: " + std::to_string(v));
    return v * 2;
}

static int through(const std::function<int(int)> &f, int v) { return f(v) + 1; }

int main(int argc, char **argv) {
    int n = argc > 1 ? std::atoi(argv[1]) : 20;
    std::map<std::string, int> counts;
    long sum = 0;
    for (int i = 0; i < n; i++) {
        try {
            sum += through(checked, i);
            counts["ok"]++;
        } catch (const std::runtime_error &e) {
            counts["caught"]++;
            if (i < 10) std::cout << "caught: " << e.what() << '\n';
        }
    }
    for (const auto &kv : counts) std::cout << kv.first << ' ' << kv.second << '\n';
    std::cout << "sum " << sum << std::endl;
    try {
        throw 7;
    } catch (int v) {
        return v == 7 ? 0 : 1;
    }
}
