//! The strategies the workspace ships; any other file directly in `solutions/` is a user's
//! attempt. The integration tests include this file, so that they judge the same list.

pub const SHIPPED: [&str; 8] = [
    "dp_array",
    "four_scalars",
    "recursive_memo",
    "rolling_mod4",
    "sign_select_pairs",
    "stones_four_scalars_unrolled",
    "stones_mod4_grouped",
    "vector_min_max_pairs",
];
