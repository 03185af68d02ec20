// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {IERC20} from "@openzeppelin/contracts/token/ERC20/IERC20.sol";
import {SafeERC20} from "@openzeppelin/contracts/token/ERC20/utils/SafeERC20.sol";
import {AccessControl} from "@openzeppelin/contracts/access/AccessControl.sol";
import {Pausable} from "@openzeppelin/contracts/utils/Pausable.sol";
import {EIP712} from "@openzeppelin/contracts/utils/cryptography/EIP712.sol";
import {ECDSA} from "@openzeppelin/contracts/utils/cryptography/ECDSA.sol";

/// @title ParticipationDistributor
/// @notice Holds the community pool of PM's participation release and pays it out on vouchers the service signs
/// (docs/participation-release.md). A voucher names an identity's cumulative entitlement; a claim pays the difference
/// to what that identity was already paid, so vouchers can be reissued without paying anything twice. Anyone may
/// submit a voucher, but the PM only ever reaches the recipient it names.
contract ParticipationDistributor is AccessControl, Pausable, EIP712 {
    using SafeERC20 for IERC20;

    /// @notice Role whose signatures make vouchers valid (the service's operator key).
    bytes32 public constant SIGNER_ROLE = keccak256("SIGNER_ROLE");
    /// @notice Role that may pause and resume payments.
    bytes32 public constant PAUSER_ROLE = keccak256("PAUSER_ROLE");
    /// @notice The EIP-712 type hash of `Voucher`.
    bytes32 public constant VOUCHER_TYPEHASH =
        keccak256("Voucher(bytes32 identity,address recipient,uint256 cumulativeAmount,bytes32 intentId,uint64 expiresAt)");

    /// @notice One identity's entitlement, as the service signs it.
    /// @param identity the identity's key (one lane per verified person).
    /// @param recipient the wallet that receives the payment.
    /// @param cumulativeAmount everything the identity is owed since the release began (base units).
    /// @param intentId the service's distribution intent; each pays at most once.
    /// @param expiresAt unix second after which the voucher is refused.
    struct Voucher {
        bytes32 identity;
        address recipient;
        uint256 cumulativeAmount;
        bytes32 intentId;
        uint64 expiresAt;
    }

    /// @notice The token released (PM).
    IERC20 public immutable token;
    /// @notice The release this pool belongs to (as `GET /participation-release` names it).
    bytes32 public immutable releaseId;
    /// @notice What each identity has been paid so far, cumulative.
    mapping(bytes32 identity => uint256) public paidTo;
    /// @notice Intents already paid.
    mapping(bytes32 intentId => bool) public intentPaid;

    /// @notice A voucher paid: `amount` to `recipient`, bringing `identity` to `cumulativeAmount`.
    event Distributed(bytes32 indexed intentId, bytes32 indexed identity, address indexed recipient, uint256 amount, uint256 cumulativeAmount);

    /// @notice The voucher's `expiresAt` is before the block's timestamp.
    error ParticipationVoucherExpired(uint64 expiresAt);
    /// @notice The voucher was not signed by a holder of SIGNER_ROLE (or was changed after signing).
    error ParticipationVoucherSignerInvalid(address signer);
    /// @notice The voucher's intent was paid already.
    error ParticipationIntentAlreadyPaid(bytes32 intentId);
    /// @notice The voucher's cumulative amount is not above what the identity was paid.
    error ParticipationNothingToPay(uint256 cumulativeAmount, uint256 paid);
    /// @notice A token, admin, signer or recipient of address zero.
    error ParticipationZeroAddress();

    constructor(IERC20 token_, bytes32 releaseId_, address admin, address signer) EIP712("ParticipationDistributor", "1") {
        if (address(token_) == address(0) || admin == address(0) || signer == address(0)) revert ParticipationZeroAddress();
        token = token_;
        releaseId = releaseId_;
        _grantRole(DEFAULT_ADMIN_ROLE, admin);
        _grantRole(PAUSER_ROLE, admin);
        _grantRole(SIGNER_ROLE, signer);
    }

    /// @notice Pays `v.recipient` what `v.identity` is owed beyond what it was already paid.
    /// @return amount the PM transferred (base units).
    function claim(Voucher calldata v, bytes calldata signature) external whenNotPaused returns (uint256 amount) {
        if (block.timestamp > v.expiresAt) revert ParticipationVoucherExpired(v.expiresAt);
        if (intentPaid[v.intentId]) revert ParticipationIntentAlreadyPaid(v.intentId);
        if (v.recipient == address(0)) revert ParticipationZeroAddress();
        address signer = ECDSA.recover(_hashTypedDataV4(hashVoucher(v)), signature);
        if (!hasRole(SIGNER_ROLE, signer)) revert ParticipationVoucherSignerInvalid(signer);
        uint256 paid = paidTo[v.identity];
        if (v.cumulativeAmount <= paid) revert ParticipationNothingToPay(v.cumulativeAmount, paid);
        amount = v.cumulativeAmount - paid;
        paidTo[v.identity] = v.cumulativeAmount;
        intentPaid[v.intentId] = true;
        token.safeTransfer(v.recipient, amount);
        emit Distributed(v.intentId, v.identity, v.recipient, amount, v.cumulativeAmount);
    }

    /// @notice The EIP-712 struct hash of a voucher.
    function hashVoucher(Voucher calldata v) public pure returns (bytes32) {
        return keccak256(abi.encode(VOUCHER_TYPEHASH, v.identity, v.recipient, v.cumulativeAmount, v.intentId, v.expiresAt));
    }

    /// @notice Stops payments (vouchers stay valid until they expire).
    function pause() external onlyRole(PAUSER_ROLE) {
        _pause();
    }

    /// @notice Resumes payments.
    function unpause() external onlyRole(PAUSER_ROLE) {
        _unpause();
    }
}
