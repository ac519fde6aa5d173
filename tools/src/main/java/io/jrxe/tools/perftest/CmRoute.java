package io.jrxe.tools.perftest;

import io.jrxe.tools.UserError;
import io.jrxe.tools.common.DeviceOptions;
import io.jrxe.tools.common.LocalDevice;
import io.jrxe.verbs.VerbsException;
import io.jrxe.verbs.cm.RdmaCm;
import io.jrxe.verbs.emulated.EmulatedProvider;
import io.jrxe.verbs.facade.Verbs;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;

/**
 * Where -R and -z go through the connection manager: the CM of the device's provider (jrxe's for a jrxe NIC, which
 * it finds by the NIC's address; librdmacm for a kernel device), the address a server binds (the wildcard and -p,
 * as perftest binds; a jrxe NIC's address) or a client connects to (the server's name and -p), and the client's source: the jrxe NIC's
 * address, so that the CM picks that NIC; librdmacm picks the kernel device by the route.
 */
record CmRoute(RdmaCm cm, InetSocketAddress source, InetSocketAddress address) {
    static CmRoute of(LocalDevice dev, DeviceOptions options, String servername, int port) {
        boolean emulated = EmulatedProvider.NAME.equals(dev.provider());
        RdmaCm cm;
        try {
            cm = emulated ? Verbs.emulated().rdmaCm() : Verbs.nativeProvider().rdmaCm();
        } catch (VerbsException e) {
            throw new UserError("the connection manager of " + dev.name() + ": " + e.getMessage(), e);
        }
        if (servername == null) {
            InetAddress bind = emulated ? options.address() : wildcard();
            return new CmRoute(cm, null, new InetSocketAddress(bind, port));
        }
        InetAddress server;
        try {
            server = InetAddress.getByName(servername);
        } catch (UnknownHostException e) {
            throw new UserError("cannot resolve " + servername + ": unknown host");
        }
        InetSocketAddress source = emulated ? new InetSocketAddress(options.address(), 0) : null;
        return new CmRoute(cm, source, new InetSocketAddress(server, port));
    }

    private static InetAddress wildcard() {
        try {
            return InetAddress.getByAddress(new byte[4]);
        } catch (UnknownHostException e) {
            throw new IllegalStateException(e);
        }
    }
}
