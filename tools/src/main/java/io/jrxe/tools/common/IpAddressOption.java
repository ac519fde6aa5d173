package io.jrxe.tools.common;

import io.jrxe.tools.BadOption;

import java.net.InetAddress;
import java.net.UnknownHostException;

/** An IP address an option gives (--addr, --addr-a, ...): parsed once here, a one-line error when it is none. */
public final class IpAddressOption {
    private IpAddressOption() {
    }

    /** The address {@code text} names; a BadOption with {@code error} as its message when it names none. */
    public static InetAddress parse(String text, String error) {
        try {
            return InetAddress.getByName(text);
        } catch (UnknownHostException e) {
            throw new BadOption(error);
        }
    }
}
