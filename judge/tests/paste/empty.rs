// paste: refused, empty
