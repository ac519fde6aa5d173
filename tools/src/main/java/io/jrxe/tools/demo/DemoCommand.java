package io.jrxe.tools.demo;

import picocli.CommandLine.Command;

import java.util.concurrent.Callable;

/** `jrxe demo`: the README's main job. Until the data path runs over UDP it says so. */
@Command(name = "demo", mixinStandardHelpOptions = true,
        description = "Two NICs on 127.0.0.1 and 127.0.0.2 doing RDMA, step by step (not built yet).")
public final class DemoCommand implements Callable<Integer> {
    @Override
    public Integer call() {
        System.out.println("jrxe demo is not built yet: it arrives with the data path over real UDP.");
        System.out.println("What works today: ./jrxe decode CAPTURE (try it on ../shared/golden/guest_write_bw.pcap).");
        return 0;
    }
}
