package io.jrxe.rnic.cm;

import io.jrxe.wire.cm.DrepFlyweight;
import io.jrxe.wire.cm.DreqFlyweight;
import io.jrxe.wire.cm.MadHeaderFlyweight;
import io.jrxe.wire.cm.MraFlyweight;
import io.jrxe.wire.cm.RejFlyweight;
import io.jrxe.wire.cm.RepFlyweight;
import io.jrxe.wire.cm.ReqFlyweight;
import io.jrxe.wire.cm.RtuFlyweight;
import io.jrxe.wire.cm.SidrRepFlyweight;
import io.jrxe.wire.cm.SidrReqFlyweight;

/** One flyweight per CM message, for a reader or a writer of MADs to wrap over its buffer. */
class CmFlyweights {
    final MadHeaderFlyweight header = new MadHeaderFlyweight();
    final ReqFlyweight req = new ReqFlyweight();
    final RepFlyweight rep = new RepFlyweight();
    final RtuFlyweight rtu = new RtuFlyweight();
    final RejFlyweight rej = new RejFlyweight();
    final MraFlyweight mra = new MraFlyweight();
    final DreqFlyweight dreq = new DreqFlyweight();
    final DrepFlyweight drep = new DrepFlyweight();
    final SidrReqFlyweight sidrReq = new SidrReqFlyweight();
    final SidrRepFlyweight sidrRep = new SidrRepFlyweight();
}
