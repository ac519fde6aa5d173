package io.jrxe.wire.cm;

/**
 * A CM message of an existing communication: every one but REQ (which has only the local ID)
 * and the SIDR pair (which have a request ID) starts with the sender's and the receiver's
 * communication IDs.
 */
public abstract class ConnectedMessageFlyweight<T extends ConnectedMessageFlyweight<T>> extends CmMessageFlyweight<T> {
    public static final CmField LOCAL_COMM_ID =
            CmField.number(CmField.Kind.HEX, "local_comm_id", "local communication ID", 0, 0, 32);
    public static final CmField REMOTE_COMM_ID =
            CmField.number(CmField.Kind.HEX, "remote_comm_id", "remote communication ID", 4, 0, 32);

    /** The sender's communication ID (0 in a REJ from a CM that kept no state for the REQ). */
    public final int localCommId() {
        return (int) get(LOCAL_COMM_ID);
    }

    public final T localCommId(int id) {
        return set(LOCAL_COMM_ID, id);
    }

    /** The receiver's communication ID: in a REJ or REP, the REQ's local ID. */
    public final int remoteCommId() {
        return (int) get(REMOTE_COMM_ID);
    }

    public final T remoteCommId(int id) {
        return set(REMOTE_COMM_ID, id);
    }
}
